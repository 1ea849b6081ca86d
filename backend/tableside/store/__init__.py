"""tableside.store"""
