//! Connect Four: gravity on any width × height board, an exact solver and classic players.
