// PTO-UNIT: {"id":"PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING","surface":"block","classification":["model","schema","profile-encoding"],"depends_on":["PTO-ARCH-DATA-TYPES-TILE-DATA-TYPES","generated:decoders"],"catalog_projection":{"catalog":"command-forms","isa":"PTO Instruction Set Architecture","reviewed_encoding_overlaps":[],"schema_version":2,"surface":"command-and-boundary"}}
type BundleKind of enumeration {
    BundleKind_Standard,
    BundleKind_Floating,
    BundleKind_System,
    BundleKind_TileElement,
    BundleKind_TileMemory,
    BundleKind_TileMatrix,
    BundleKind_FrameTemplate
};

// Four-bit BlockType codes of the PTO-v0 profile. Codes 0011, 0100 and
// 1001..1111 name no bundle kind.
pure func PTOv0BundleKindCode(kind: BundleKind) => bits(4)
begin
    case kind of
        when BundleKind_Standard => return '0000';
        when BundleKind_Floating => return '0001';
        when BundleKind_System => return '0010';
        when BundleKind_TileElement => return '0101';
        when BundleKind_TileMemory => return '0110';
        when BundleKind_TileMatrix => return '0111';
        when BundleKind_FrameTemplate => return '1000';
    end;
end;

// PE_MODE 0 disables every PE, 1..4 pick a single PE from the highest
// mask bit down, 5 and 6 pick the two and three highest PEs, 7 picks all.
pure func PTOv0PEMaskOfPEMode(mode: bits(3)) => bits(4)
begin
    let index = UInt(mode);
    if index == 0 then
        return '0000';
    elsif index <= 4 then
        return LSR('10000', index)[3:0];
    elsif index == 5 then
        return '1100';
    elsif index == 6 then
        return '1110';
    else
        return '1111';
    end;
end;
