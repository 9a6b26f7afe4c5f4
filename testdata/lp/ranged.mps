* A ranged row and a negative RANGES value on an E row.
*
*   minimize   x + 2y
*   subject to band:  3 <= x + y <= 5      (L row, RHS 5, RANGES 2)
*              gap:   x - y <= 1
*              fix:   -1 <= x - 2y <= 0    (E row, RHS 0, RANGES -1)
*              x, y >= 0
*
* Optimum x = 2, y = 1, objective 4: band at its lower bound 3, gap at its upper
* bound 1, fix = 0 at its upper bound but not needed.
* Proof: duals y_band = 1.5 (>= 0: a lower bound in a minimisation), y_gap = -0.5
* (<= 0: an upper bound), y_fix = 0 satisfy (1, 2) = 1.5*(1, 1) - 0.5*(1, -1); the
* dual bound 3*1.5 + 1*(-0.5) + 0 = 4 equals the primal objective 2 + 2*1 = 4.
NAME          ranged
ROWS
 N  cost
 L  band
 L  gap
 E  fix
COLUMNS
    x         cost      1              band      1
    x         gap       1              fix       1
    y         cost      2              band      1
    y         gap       -1             fix       -2
RHS
    RHS       band      5              gap       1
RANGES
    RNG       band      2              fix       -1
ENDATA
