/*
 * Payment card numbers for the secret matchers: the Luhn checksum, the
 * brand a number belongs to (by issuer identification range and length),
 * and the numbers that are documented as test values or are too regular to
 * be issued cards. A digit string has to pass all three before the secret
 * scanner treats it as card data: the checksum alone accepts one random
 * number in ten, the brand ranges cut that further, and the test list keeps
 * the cards every payments tutorial prints from raising reviews.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "secrets.h"

bool mv_luhn_valid(const char *digits, size_t n) {
    bool ok = n > 0;
    unsigned sum = 0;
    /* Double every second digit counting from the right (the check digit
     * itself is not doubled). */
    for (size_t i = 0; ok && i < n; i++) {
        unsigned char c = (unsigned char)digits[n - 1 - i];
        if (c < '0' || c > '9') {
            ok = false;
            break;
        }
        unsigned d = (unsigned)(c - '0');
        if (i % 2 == 1) {
            d *= 2;
            if (d > 9)
                d -= 9;
        }
        sum += d;
    }
    return ok && sum % 10 == 0;
}

/* The first `k` digits as a number (k <= 9; digits already validated). */
static unsigned prefix_value(const char *digits, size_t n, size_t k) {
    unsigned v = 0;
    for (size_t i = 0; i < k && i < n; i++)
        v = v * 10 + (unsigned)(digits[i] - '0');
    return v;
}

static bool all_digits(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return n > 0;
}

mv_card_brand mv_card_brand_of(const char *digits, size_t n) {
    mv_card_brand brand = MV_CARD_NONE;
    if (n < 13 || n > 19 || !all_digits(digits, n))
        goto done;
    unsigned p1 = prefix_value(digits, n, 1);
    unsigned p2 = prefix_value(digits, n, 2);
    unsigned p3 = prefix_value(digits, n, 3);
    unsigned p4 = prefix_value(digits, n, 4);
    unsigned p6 = prefix_value(digits, n, 6);
    if (p1 == 4) {
        if (n == 13 || n == 16 || n == 19)
            brand = MV_CARD_VISA;
    } else if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) {
        if (n == 16)
            brand = MV_CARD_MASTERCARD;
    } else if (p2 == 34 || p2 == 37) {
        if (n == 15)
            brand = MV_CARD_AMEX;
    } else if (p4 == 6011 || (p3 >= 644 && p3 <= 649) || p2 == 65 ||
               (p6 >= 622126 && p6 <= 622925)) {
        if (n >= 16)
            brand = MV_CARD_DISCOVER;
    } else if (p4 >= 3528 && p4 <= 3589) {
        if (n >= 16)
            brand = MV_CARD_JCB;
    } else if ((p3 >= 300 && p3 <= 305) || p4 == 3095 || p2 == 36 || p2 == 38 || p2 == 39) {
        if (n >= 14)
            brand = MV_CARD_DINERS;
    }
done:
    return brand;
}

const char *mv_card_brand_name(mv_card_brand brand) {
    switch (brand) {
    case MV_CARD_VISA:
        return "Visa";
    case MV_CARD_MASTERCARD:
        return "Mastercard";
    case MV_CARD_AMEX:
        return "American Express";
    case MV_CARD_DISCOVER:
        return "Discover";
    case MV_CARD_JCB:
        return "JCB";
    case MV_CARD_DINERS:
        return "Diners Club";
    case MV_CARD_NONE:
        break;
    }
    return "card";
}

/* Numbers that payment processors publish for test mode. The generic rules
 * below catch most of them too; the list holds the ones too irregular for
 * those rules. */
static const char *const test_numbers[] = {
    "4242424242424242", "4000056655665556", "4111111111111111", "4012888888881881",
    "4222222222222",    "4005519200000004", "4009348888881881", "4012000033330026",
    "4012000077777777", "4217651111111119", "4500600000000061", "4000002500003155",
    "4000002760003184", "4000003800000446", "4000000000003220", "4988438843884305",
    "4917610000000000", "4007000000027",    "4012888818888",    "5555555555554444",
    "5105105105105100", "5200828282828210", "2223003122003222", "2223000048400011",
    "5454545454545454", "5500000000000004", "378282246310005",  "371449635398431",
    "378734493671000",  "340000000000009",  "6011111111111117", "6011000990139424",
    "6011981111111113", "6011000991300009", "6011000000000004", "6011000400000000",
    "3056930009020004", "36227206271667",   "30569309025904",   "38520000023237",
    "36259600000004",   "30000000000004",   "3566002020360505", "3530111333300000",
    "3088000000000009", "6200000000000005", "6304000000000000",
};

bool mv_card_is_test_number(const char *digits, size_t n) {
    bool test = false;
    for (size_t i = 0; i < sizeof(test_numbers) / sizeof(test_numbers[0]); i++) {
        if (strlen(test_numbers[i]) == n && memcmp(test_numbers[i], digits, n) == 0) {
            test = true;
            goto done;
        }
    }
    /* Few distinct digits: 4000000000000002, 5555555555554444... */
    unsigned seen = 0, distinct = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned bit = 1u << (unsigned)(digits[i] - '0');
        if ((seen & bit) == 0) {
            seen |= bit;
            distinct++;
        }
    }
    if (distinct <= 3) {
        test = true;
        goto done;
    }
    /* A run of six equal digits: issued numbers almost never have one. */
    size_t run = 1;
    for (size_t i = 1; i < n; i++) {
        run = digits[i] == digits[i - 1] ? run + 1 : 1;
        if (run >= 6) {
            test = true;
            goto done;
        }
    }
    /* A short cycle over everything but the check digit: 5105105105105100. */
    for (size_t p = 1; p <= 4 && n > 1; p++) {
        bool cyclic = true;
        for (size_t i = p; i + 1 < n; i++) {
            if (digits[i] != digits[i - p]) {
                cyclic = false;
                break;
            }
        }
        if (cyclic) {
            test = true;
            goto done;
        }
    }
done:
    return test;
}
