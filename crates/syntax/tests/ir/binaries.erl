-module(binaries).
-export([build/2, parse/1, types/1, rest/1]).

build(X, N) -> <<X:8, X:16/little, X:N/unit:8, (X * 2):(N * 8)/binary, "abc", X/utf8, -1:8/signed>>.
parse(<<Len:8, Data:Len/binary, Rest/bits>>) -> {Data, Rest};
parse(<<"GET ", Path/binary>>) -> Path;
parse(<<F:64/float, I:32/integer-signed-little>>) -> {F, I}.
types(B) -> <<B/bytes, B/bitstring, B:4/binary-unit:16, 1.5/float, 16#ff:8/native>>.
rest(<<_:8, R/binary>>) -> R;
rest(<<>>) -> <<>>.
