"""Discord user-interface pieces shared by the cogs: persistent buttons and their custom ids,
replies and error answering, posting boards, and :class:`~bot.ui.host.BotHost`, the protocol
through which the ui and the cogs see the bot (they never import ``bot.client``)."""
