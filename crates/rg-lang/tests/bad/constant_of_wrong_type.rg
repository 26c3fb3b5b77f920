// expect 7:14: found the constant `c` of type {b}
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type T = {a};
const c: {b} = b;
const d: T = c;
