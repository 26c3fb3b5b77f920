// expect 5:6: found the keyword `type`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type type = {a};
