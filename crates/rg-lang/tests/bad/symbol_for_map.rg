// expect 5:23: expected a value of type {a} -> {b}, found the symbol `b`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
const c: {a} -> {b} = b;
