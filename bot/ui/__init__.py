"""Discord user-interface pieces shared by the cogs: persistent buttons and their custom ids,
replies and error answering, and posting boards."""
