"""tableside.db"""
