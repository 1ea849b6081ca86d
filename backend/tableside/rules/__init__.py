"""tableside.rules"""
