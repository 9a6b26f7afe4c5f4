* A small knapsack MIP.
*
*   maximize   8a + 11b + 6c + 4d
*   subject to w:  5a + 7b + 4c + 3d <= 14,   a, b, c, d binary
*
* Optimum a = 0, b = 1, c = 1, d = 1: weight 14, value 21. The LP relaxation gives
* 22 (a = 1, b = 1, c = 0.5), so branching is needed; the 16 points can be checked by
* hand: a+b (12, value 19), a+c+d (12, 18), b+c+d (14, 21), a+b+… overweight.
NAME          knapsack
OBJSENSE
    MAX
ROWS
 N  value
 L  w
COLUMNS
    MARKER    'MARKER'  'INTORG'
    a         value     8              w         5
    b         value     11             w         7
    c         value     6              w         4
    d         value     4              w         3
    MARKER    'MARKER'  'INTEND'
RHS
    RHS       w         14
BOUNDS
 UP BND       a         1
 UP BND       b         1
 UP BND       c         1
 UP BND       d         1
ENDATA
