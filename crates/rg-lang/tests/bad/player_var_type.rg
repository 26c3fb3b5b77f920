// expect 5:13: expected the built-in type of `player`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
var player: {z} = z;
