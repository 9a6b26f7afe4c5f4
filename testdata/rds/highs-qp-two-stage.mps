NAME          rds-rhc-t0
ROWS
 N  obj
 G  deadline[a]
 G  deadline[b]
 L  capacity[0]
 L  capacity[1]
 L  capacity[2]
COLUMNS
    um[a,0]      obj          -5263.177894736841
    um[a,0]      deadline[a]  17.543859649122805
    um[a,0]      capacity[0]  1
    ur[a,0]      capacity[0]  1
    um[a,1]      obj          -3508.7719298245606
    um[a,1]      deadline[a]  17.543859649122805
    um[a,1]      capacity[1]  1
    ur[a,1]      capacity[1]  1
    um[a,2]      capacity[2]  1
    ur[a,2]      capacity[2]  1
    um[b,0]      obj          -6648.219445983379
    um[b,0]      deadline[b]  22.160664819944596
    um[b,0]      capacity[0]  1
    ur[b,0]      capacity[0]  1
    um[b,1]      obj          -4432.132963988919
    um[b,1]      deadline[b]  22.160664819944596
    um[b,1]      capacity[1]  1
    ur[b,1]      capacity[1]  1
    um[b,2]      capacity[2]  1
    ur[b,2]      capacity[2]  1
RHS
    RHS          obj          -25000.019999999997
    RHS          deadline[a]  99.999999
    RHS          deadline[b]  99.999999
    RHS          capacity[0]  4.5
    RHS          capacity[1]  7.75
    RHS          capacity[2]  5
BOUNDS
 UP BND       um[a,0]      5.7
 FX BND       ur[a,0]      0
 UP BND       um[a,1]      5.7
 FX BND       ur[a,1]      0
 UP BND       um[a,2]      5.7
 FX BND       ur[a,2]      0
 UP BND       um[b,0]      4.5125
 FX BND       ur[b,0]      0
 UP BND       um[b,1]      4.5125
 FX BND       ur[b,1]      0
 UP BND       um[b,2]      4.5125
 FX BND       ur[b,2]      0
QUADOBJ
    um[a,0]      um[a,0]      1231.1880455524774
    um[a,0]      um[a,1]      615.5540227762388
    ur[a,0]      ur[a,0]      2
    um[a,1]      um[a,1]      615.6140227762387
    um[a,1]      um[a,2]      -0.02
    ur[a,1]      ur[a,1]      2
    um[a,2]      um[a,2]      0.02
    ur[a,2]      ur[a,2]      2
    um[b,0]      um[b,0]      1964.4202610477203
    um[b,0]      um[b,1]      982.1701305238602
    ur[b,0]      ur[b,0]      2
    um[b,1]      um[b,1]      982.2301305238601
    um[b,1]      um[b,2]      -0.02
    ur[b,1]      ur[b,1]      2
    um[b,2]      um[b,2]      0.02
    ur[b,2]      ur[b,2]      2
ENDATA
