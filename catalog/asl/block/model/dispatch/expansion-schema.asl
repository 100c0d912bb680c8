// PTO-UNIT: {"id":"PTO-BLOCK-MODEL-DISPATCH-EXPANSION-SCHEMA","surface":"block","classification":["model","dispatch","expansion-schema"],"depends_on":["PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING","PTO-TILE-MODEL-LEGALITY-REDUCTION-AND-EXPANSION"]}
// Bundle schema of the Tile expansion operations: exactly one terminating
// Local B.IOT with exactly one source, and neither B.IOR nor B.IOS.
pure func BlockExpansionSchemaAccepts(
    local_iot_count: integer,
    source_count: integer,
    has_bior: boolean,
    has_bios: boolean) => boolean
begin
    if has_bior || has_bios then
        return FALSE;
    end;
    return local_iot_count == 1 && source_count == 1;
end;
