// PTO-TEST: {"id":"PTO-AVS-TILE-MODEL-DISPATCH-TOP-LEVEL-STATIC-001","source":"asl/tile/model/dispatch/top-level.asl","requirements":["PTO-INST-TILE-TADD","PTO-INST-TILE-TMUL","PTO-INST-TILE-TSQRT","PTO-INST-TILE-TCOLEXPAND"],"kind":"static-invariant","summary":"exactly four of the 128 TEPL selectors are assigned in the sample","pass_condition":"the count of assigned selectors is 4 and each maps to its operation","related_sources":["asl/tile/elementwise-tile-tile/arithmetic/TADD.asl","asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl","asl/tile/elementwise-tile-tile/transcendental/TSQRT.asl","asl/tile/reduce-and-expand/column-expansion/TCOLEXPAND.asl"]}
func main() => integer
begin
    var assigned: integer = 0;
    for selector = 0 to 127 looplimit 128 do
        if TileSelectorAssigned(selector as integer {0..127}) then
            assigned = assigned + 1;
        end;
    end;
    assert assigned == 4;
    assert TileOperationOfSelector(0) == TileOperation_TADD;
    assert TileOperationOfSelector(2) == TileOperation_TMUL;
    assert TileOperationOfSelector(21) == TileOperation_TSQRT;
    assert TileOperationOfSelector(84) == TileOperation_TCOLEXPAND;
    return 0;
end;
