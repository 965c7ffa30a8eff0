"""The bot's cogs (discord.py extensions), loaded by ``GameroomBot.setup_hook``.

Each cog stays thin: defer the interaction, call the service, present the result.
"""
