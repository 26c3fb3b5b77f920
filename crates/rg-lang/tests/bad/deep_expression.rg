// expect 5:81: expected at most 64 levels of nesting
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
begin, end: m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[m[x]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a] == a;
