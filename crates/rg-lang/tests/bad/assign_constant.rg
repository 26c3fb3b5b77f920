// expect 7:13: found the constant `c`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type T = {a};
const c: T = a;
begin, end: c = a;
