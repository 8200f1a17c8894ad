%% Checks: utf8/utf16/utf32 segments in construction and matching, decoding a utf8 binary to code points.
-module(bin_utf).
-export([main/0]).

decode(<<>>) -> [];
decode(<<C/utf8, Rest/binary>>) -> [C | decode(Rest)].

main() ->
    io:format("~w~n", [<<$a/utf8, 228/utf8, 1087/utf8, 16#1F600/utf8>>]),
    io:format("~w~n", [<<228/utf16>>]),
    io:format("~w~n", [<<16#1F600/utf16-little>>]),
    io:format("~w~n", [<<65/utf32>>]),
    Bin = <<104, 195, 164, 208, 191, 240, 159, 152, 128>>,
    io:format("~w~n", [decode(Bin)]),
    <<C1/utf8, _/binary>> = <<226, 130, 172>>,
    io:format("~p~n", [C1]),
    io:format("~w~n", [unicode:characters_to_binary([8364, 65])]),
    io:format("~w~n", [unicode:characters_to_list(<<226, 130, 172>>)]),
    Bad = try <<16#110000/utf8>> catch error:R -> R end,
    io:format("~p~n", [Bad]),
    Inv = case <<255, 1>> of
              <<X/utf8, _/binary>> -> {ok, X};
              _ -> invalid
          end,
    io:format("~p~n", [Inv]),
    {byte_size(<<16#10FFFF/utf8>>), byte_size(<<127/utf8>>), byte_size(<<2047/utf8>>)}.
