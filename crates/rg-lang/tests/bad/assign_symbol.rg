// expect 5:13: found the symbol `zz`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
begin, end: zz = a;
