from collections.abc import Sequence  # Import the read-only sequence interface so both lists and tuples are valid inputs.
from typing import TypeVar  # Import the type-variable utility to retain the original type of input elements.
 
T = TypeVar("T")  # T represents any element type, such as a token, sentence, or parsed element.
 
 
def fixed_windows(  # Define a deterministic splitter that returns start, end, and window content.
    units: Sequence[T],  # The sequence of units to split; it is not assumed to be a string.
    *,  # Later parameters must be keywords, preventing size and overlap from being swapped positionally.
    size: int,  # The maximum number of units a window may contain: the hard max.
    overlap: int,  # The units repeated from the preceding window to preserve adjacent context.
) -> list[tuple[int, int, list[T]]]:  # Each result uses a half-open [start, end) range and carries its actual content.
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:  # bool is a subclass of int, so reject it separately.
        raise ValueError("size must be a positive integer")  # Fail immediately rather than entering a loop without a positive window.
    if (  # Then verify that overlap is an integer and guarantees a positive stride.
        isinstance(overlap, bool)  # Reject pseudo-integers such as True and False too.
        or not isinstance(overlap, int)  # Reject floats, strings, and other imprecise configurations.
        or not 0 <= overlap < size  # overlap equal to size would make size - overlap equal zero.
    ):
        raise ValueError("require 0 <= overlap < size")  # Make the non-advancing configuration explicit.
 
    result: list[tuple[int, int, list[T]]] = []  # Preserve every window in source order.
    start = 0  # The first window begins at unit 0.
    while start < len(units):  # Generate a window while its start is within the input.
        end = min(start + size, len(units))  # The final window may be short but never passes the input end.
        result.append((start, end, list(units[start:end])))  # Slice [start, end) and make an independent list.
        if end == len(units):  # Once the final unit is covered, do not create an overlap-only tail window.
            break  # End immediately so the output contains no redundant window.
        start += size - overlap  # Advance by a positive stride while retaining the requested overlap.
    return result  # Return all windows; an empty input naturally returns an empty list.
