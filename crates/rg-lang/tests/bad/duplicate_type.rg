// expect 6:6: found the type `T` defined twice
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type T = {a};
type T = {b};
