// PTO-UNIT: {"id":"PTO-TILE-MODEL-LEGALITY-REDUCTION-AND-EXPANSION","surface":"tile","classification":["model","legality","reduction-and-expansion"],"depends_on":["PTO-TILE-MODEL-LEGALITY-DTYPE-LAYOUT"]}
type TileExpandKind of enumeration {
    TileExpand_COPY
};

type TileAxis of enumeration {
    TileAxis_Row,
    TileAxis_Column
};

// Operand legality of an expansion. A column expansion broadcasts one
// source row down the destination; a row expansion broadcasts one source
// column across it. The second source slot is unused by COPY.
readonly func TileOperandsLegal_ExecuteTileExpand(
    kind: TileExpandKind,
    axis: TileAxis,
    destination: TileIndex,
    source: TileIndex,
    second: TileIndex) => boolean
begin
    if !TileDescriptorLegal(source) || !TileDescriptorLegal(destination) then
        return FALSE;
    end;
    let src = _Tiles[[source]];
    let dst = _Tiles[[destination]];
    if src.data_type != dst.data_type ||
       !TileVecArithmeticDataTypeSupported(src.data_type) then
        return FALSE;
    end;
    if src.layout != TileLayout_RowMajor || !src.contents_defined then
        return FALSE;
    end;
    if axis == TileAxis_Column then
        return src.valid_rows == 1 &&
               src.valid_columns == dst.valid_columns &&
               src.columns == dst.columns;
    end;
    return src.valid_columns == 1 && src.valid_rows == dst.valid_rows;
end;
