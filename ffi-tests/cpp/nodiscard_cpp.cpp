// Must NOT compile with -Werror: a result of the C++ layer is ignored ([[nodiscard]]).
#include "arbor.hpp"
int main() {
    arbor::hand_rank({51, 47, 43, 39, 35});
    return 0;
}
