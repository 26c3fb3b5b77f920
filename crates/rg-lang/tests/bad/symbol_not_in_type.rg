// expect 6:14: expected a value of type {a}, found the symbol `b`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type T = {a};
const c: T = b;
