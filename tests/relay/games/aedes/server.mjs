// A plain Aedes MQTT broker for the tests: node server.mjs PORT
// (a second broker implementation that is neither Mosquitto nor amqtt).
import { createServer } from 'node:net'
import { Aedes } from 'aedes'

const port = Number(process.argv[2] || 1883)
const broker = await Aedes.createBroker()
const server = createServer(broker.handle)
server.listen(port, '127.0.0.1', () => console.log(`aedes listening on 127.0.0.1:${port}`))
const stop = () => server.close(() => broker.close(() => process.exit(0)))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
