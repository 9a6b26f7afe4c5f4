NAME          sample
OBJSENSE
    MAX
ROWS
 N  obj
 L  cap
 G  R2
 E  bal
 L  band
 L  free
COLUMNS
    x         obj       3
    x         cap       1
    x         R2        0.1
    x         free      1
    MARKER    'MARKER'  'INTORG'
    y         obj       2
    y         cap       1
    y         bal       1
    b         obj       -1
    b         cap       2
    MARKER    'MARKER'  'INTEND'
    C4        R2        1
    C4        band      1
    C4        free      3
    w         bal       1
    u         obj       1
    u         band      1
    f         bal       1
    empty     obj       0
RHS
    RHS       obj       -12.5
    RHS       cap       8
    RHS       R2        1e-07
    RHS       bal       3
    RHS       band      2.5
    RHS       free      1e+30
RANGES
    RNG       band      4
BOUNDS
 UP BND       x         4
 UP BND       y         10
 UP BND       b         1
 FR BND       C4
 LO BND       w         -2
 UP BND       w         -0.5
 MI BND       u
 UP BND       u         3
 FX BND       f         1.25
QUADOBJ
    x         x         -2
    x         C4        0.5
    C4        C4        -2
ENDATA
