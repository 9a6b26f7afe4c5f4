NAME          rds-rhc-t0
ROWS
 N  obj
 G  deadline[a]
 L  capacity[0]
COLUMNS
    um[a,0]      obj          -5002
    um[a,0]      deadline[a]  50
    um[a,0]      capacity[0]  1
    ur[a,0]      obj          -2
    ur[a,0]      capacity[0]  1
    um[b,0]      obj          -2
    um[b,0]      capacity[0]  1
    ur[b,0]      obj          -2
    ur[b,0]      capacity[0]  1
RHS
    RHS          obj          -2504
    RHS          deadline[a]  -9.999999974752427e-07
    RHS          capacity[0]  6.103515625e-05
BOUNDS
 FX BND       um[a,0]      0
 UP BND       ur[a,0]      1
 FX BND       um[b,0]      0
 UP BND       ur[b,0]      1
QUADOBJ
    um[a,0]      um[a,0]      5002
    ur[a,0]      ur[a,0]      2
    um[b,0]      um[b,0]      2
    ur[b,0]      ur[b,0]      2
ENDATA
