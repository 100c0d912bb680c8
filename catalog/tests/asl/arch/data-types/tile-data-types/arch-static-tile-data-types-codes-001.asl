// PTO-TEST: {"id":"PTO-AVS-ARCH-DATA-TYPES-TILE-DATA-TYPES-STATIC-001","source":"asl/arch/data-types/tile-data-types.asl","requirements":[],"kind":"static-invariant","summary":"the DataType field assigns 25 codes and reserves 7","pass_condition":"exactly 25 of the 32 codes decode, code 0 is FP64 and code 24 is U64","related_sources":[]}
func main() => integer
begin
    var assigned_count: integer = 0;
    for code = 0 to 31 looplimit 32 do
        let (assigned, data_type) = TileDataTypeOfCode(code[4:0]);
        if assigned then
            assigned_count = assigned_count + 1;
        end;
    end;
    assert assigned_count == 25;
    let (a0, t0) = TileDataTypeOfCode('00000');
    assert a0 && t0 == TileDataType_FP64;
    let (a24, t24) = TileDataTypeOfCode('11000');
    assert a24 && t24 == TileDataType_U64;
    return 0;
end;
