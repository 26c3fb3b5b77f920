// expect 6:14: found the symbol `d`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type T = {a};
const c: T = d;
const d: T = a;
