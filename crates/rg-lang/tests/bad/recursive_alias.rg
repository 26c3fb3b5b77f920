// expect 5:6: found the recursive alias `R`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type R = {a} -> R;
