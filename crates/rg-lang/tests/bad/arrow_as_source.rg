// expect 6:10: expected a set type as the source of an arrow
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type A = {a} -> {b};
type M = A -> {c};
