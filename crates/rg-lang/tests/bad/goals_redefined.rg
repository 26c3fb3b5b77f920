// expect 5:6: expected the built-in `Goals` to equal
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type Goals = Player -> Player;
