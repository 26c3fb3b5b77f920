// expect 2:6: expected `Player` to be a set type
type Player = {x} -> {y};
type Score = {0};
begin, end: player = keeper;
