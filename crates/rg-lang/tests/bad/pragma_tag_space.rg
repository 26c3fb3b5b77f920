// expect 5:21: found whitespace before `:`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
@simpleApply a b [t :T];
