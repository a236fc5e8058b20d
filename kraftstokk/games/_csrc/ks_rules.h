/* A game's rule parameters in a native core, read from the Python game's `parameters`.
 *
 * Include after ks_game.h, whose RULE_PARAMETERS(X) lists the fields of the game's rules
 * dataclass (rules.py; games/cheader.py writes the header). This declares `Rules`, a
 * struct with one int per parameter, and `ks_read_rules`, which fills it from the
 * dataclass instance by the fields' names, so a parameter added in rules.py is in the
 * struct without a C edit; the core reads `core->rules.burn_count` where the rule is.
 */
#ifndef KS_RULES_H
#define KS_RULES_H

#include <Python.h>
#include <limits.h>

typedef struct {
#define KS_DECLARE_PARAMETER(name) int name;
    RULE_PARAMETERS(KS_DECLARE_PARAMETER)
#undef KS_DECLARE_PARAMETER
} Rules;

/* parameters.<name> as an int from 0 to INT_MAX (a bool is 0 or 1); -1 with an error. */
static int ks_read_parameter(PyObject *parameters, const char *name, int *out) {
    PyObject *value = PyObject_GetAttrString(parameters, name);
    if (!value) return -1;
    int overflow = 0;
    long long number = PyLong_Check(value) ? PyLong_AsLongLongAndOverflow(value, &overflow) : -1;
    Py_DECREF(value);
    if (number == -1 && PyErr_Occurred()) return -1;
    if (overflow || number < 0 || number > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "rule parameter %s: not an int from 0 to %d", name,
                     INT_MAX);
        return -1;
    }
    *out = (int)number;
    return 0;
}

/* Every field of RULE_PARAMETERS from the game's rule parameters; -1 with an error set. */
static int ks_read_rules(PyObject *parameters, Rules *rules) {
#define KS_READ_PARAMETER(name) \
    if (ks_read_parameter(parameters, #name, &rules->name) < 0) return -1;
    RULE_PARAMETERS(KS_READ_PARAMETER)
#undef KS_READ_PARAMETER
    return 0;
}

#endif /* KS_RULES_H */
