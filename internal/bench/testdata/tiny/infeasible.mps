* An infeasible LP.
*
*   minimize   x + y
*   subject to low:   x + y <= 1
*              high:  x + y >= 3
*              x, y >= 0
*
* Proof of infeasibility (a Farkas certificate): multiplying low by -1 and high by
* +1 and adding gives 0 >= 2.
NAME          infeasible
ROWS
 N  cost
 L  low
 G  high
COLUMNS
    x         cost      1              low       1
    x         high      1
    y         cost      1              low       1
    y         high      1
RHS
    RHS       low       1              high      3
ENDATA
