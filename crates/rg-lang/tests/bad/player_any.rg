// expect 5:13: found an any-assignment
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
begin, end: player = Player(*);
