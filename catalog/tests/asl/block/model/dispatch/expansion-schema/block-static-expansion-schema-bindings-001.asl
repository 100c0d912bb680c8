// PTO-TEST: {"id":"PTO-AVS-BLOCK-MODEL-DISPATCH-EXPANSION-SCHEMA-STATIC-001","source":"asl/block/model/dispatch/expansion-schema.asl","requirements":["PTO-TCOLEXPAND-CONTRACT-001"],"kind":"static-invariant","summary":"the expansion schema accepts one Local B.IOT with one source and nothing else","pass_condition":"only the single-binding, single-source, no-B.IOR, no-B.IOS shape is accepted","related_sources":["asl/tile/reduce-and-expand/column-expansion/TCOLEXPAND.asl"]}
func main() => integer
begin
    assert BlockExpansionSchemaAccepts(1, 1, FALSE, FALSE);
    assert !BlockExpansionSchemaAccepts(1, 2, FALSE, FALSE);
    assert !BlockExpansionSchemaAccepts(2, 1, FALSE, FALSE);
    assert !BlockExpansionSchemaAccepts(1, 1, TRUE, FALSE);
    assert !BlockExpansionSchemaAccepts(1, 1, FALSE, TRUE);
    return 0;
end;
