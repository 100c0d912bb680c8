// PTO-TEST: {"id":"PTO-AVS-TILE-MODEL-LEGALITY-DTYPE-LAYOUT-STATIC-001","source":"asl/tile/model/legality/dtype-layout.asl","requirements":["PTO-TILE-DATATYPE-SETS-001"],"kind":"static-invariant","summary":"the arithmetic set has 16 members and contains the 8 floating-point ones","pass_condition":"counts over all assigned codes are 16 and 8, and the floating set is a subset","related_sources":["asl/arch/data-types/tile-data-types.asl"]}
func main() => integer
begin
    var arithmetic: integer = 0;
    var floating: integer = 0;
    for code = 0 to 31 looplimit 32 do
        let (assigned, data_type) = TileDataTypeOfCode(code[4:0]);
        if assigned && TileVecArithmeticDataTypeSupported(data_type) then
            arithmetic = arithmetic + 1;
        end;
        if assigned && TileFloatingElementwiseDataTypeSupported(data_type) then
            floating = floating + 1;
            assert TileVecArithmeticDataTypeSupported(data_type);
        end;
    end;
    assert arithmetic == 16;
    assert floating == 8;
    return 0;
end;
