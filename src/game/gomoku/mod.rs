//! Gomoku on bitboards with incremental pattern codes, under freestyle, standard, renju and caro.
