%% Checks: ~p vs ~tp on lists of code points > 255, latin1 range strings, ~ts with unicode binaries; output device is latin1.
-module(fmt_unicode).
-export([main/0]).

main() ->
    L = [1087, 1088, 1080],            % Cyrillic letters
    io:format("~w~n", [L]),
    io:format("~p~n", [L]),
    io:format("~tp~n", [[$a, $b]]),
    Bin = <<"abc"/utf8>>,
    io:format("~p~n", [Bin]),
    U = unicode:characters_to_binary([$x, 228, $y]),
    io:format("~w~n", [U]),
    io:format("~p~n", [U]),
    io:format("~p~n", [unicode:characters_to_list(U)]),
    io:format("~w~n", [unicode:characters_to_list(<<195, 164>>, utf8)]),
    io:format("~p~n", [[228, 246, 252]]),
    io:format("~p~n", [<<228, 246>>]),
    io:format("~p~n", [io_lib:printable_list([228, 246])]),
    io:format("~p~n", [io_lib:printable_unicode_list([1087, 1088])]),
    io:format("~p~n", [io_lib:printable_latin1_list([1087])]),
    io:format("~p~n", [string:length(<<"a", 195, 164>>)]),
    {byte_size(U), length(unicode:characters_to_list(U))}.
