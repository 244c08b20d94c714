//! m,n,k games: k in a row on an m × n board (tic-tac-toe is 3,3,3), solved where small.
