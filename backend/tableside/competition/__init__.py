"""tableside.competition"""
