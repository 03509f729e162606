"""The trust layer: a sans-I/O protocol of signed, hash-chained game logs."""
