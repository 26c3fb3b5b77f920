// expect 5:3: found `#`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
a # b
