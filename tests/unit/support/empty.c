/* Keeps the test support library non-empty. */
typedef int mv_test_support_empty;
