# inbox
