// expect 5:20: expected `;` at the end of the `@translatedFromRbg` pragma
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
@translatedFromRbg x;
