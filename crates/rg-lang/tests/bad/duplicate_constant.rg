// expect 7:7: found the constant `c` defined twice
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type T = {a};
const c: T = a;
const c: T = a;
