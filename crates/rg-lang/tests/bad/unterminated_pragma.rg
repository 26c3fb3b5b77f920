// expect 5:1: expected `;` ending the pragma
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
@foo bar
