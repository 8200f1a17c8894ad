-module(pp).
-export([main/0]).
main() ->
    Terms = [
      {ok, [{name, "alpha"}, {value, 12345678}, {tags, [a, b, c, d, e, f, g]}, {nested, #{x => 1, y => [1,2,3]}}]},
      #{alpha => lists:seq(1, 30), beta => {some, tuple, with, atoms, and_more_atoms_here}, gamma => <<"binary data here">>},
      [{k, lists:seq(1, 12)} || _ <- lists:seq(1, 6)],
      {record_like, "string value", 3.14159, [x, y, z], {inner, {deeper, {deepest, lists:seq(1, 25)}}}},
      <<1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40>>,
      [#{a => 1, b => "two"}, #{c => [1,2,3], d => {e, f}}, #{g => lists:seq(100, 120)}],
      {error, {badmatch, {some_really_long_atom_name_for_testing, another_long_atom_name, yet_another_one}}},
      ["a string", "another string", "yet another string that is long", "and more text here"],
      {tag, [1|2], [a, b | c], {}, [], #{}}
    ],
    lists:foreach(fun(T) -> io:format("~p~n", [T]), io:format("x: ~p~n", [T]) end, Terms).
