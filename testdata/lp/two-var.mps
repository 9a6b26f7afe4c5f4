* Two-variable LP.
*
*   maximize   3x + 2y
*   subject to cap:   x +  y <= 4
*              mix:   x + 3y <= 9
*              0 <= x <= 3,  y >= 0
*
* Optimum x = 3, y = 1, objective 11 (cap is tight, mix has slack 3, x is at its
* upper bound).
* Proof: the row dual y_cap = 2 and the bound multiplier 1 on x <= 3 satisfy
* (3, 2) = 2*(1, 1) + 1*(1, 0), both nonnegative (a maximisation with <= rows), and
* give the dual bound 4*2 + 3*1 = 11, equal to the primal objective 3*3 + 2*1 = 11.
NAME          two-var
OBJSENSE
    MAX
ROWS
 N  profit
 L  cap
 L  mix
COLUMNS
    x         profit    3              cap       1
    x         mix       1
    y         profit    2              cap       1
    y         mix       3
RHS
    RHS       cap       4              mix       9
BOUNDS
 UP BND       x         3
ENDATA
