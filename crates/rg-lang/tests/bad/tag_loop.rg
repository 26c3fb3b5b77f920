// expect 5:1: found a tag on a loop
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
a, a: $ t;
