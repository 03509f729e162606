"""The program's words: the current language, ``tr``, and the gettext catalogues behind them.

``from client.i18n import tr`` is how every screen speaks; :mod:`client.i18n.language` holds the
current language, :mod:`client.i18n.translations` the catalogues, :mod:`client.i18n.declare` and
each domain's ``texts.py`` the English they are made from.
"""

from client.i18n.language import LANGUAGE, has, tr, tr_in

__all__ = ["LANGUAGE", "has", "tr", "tr_in"]
