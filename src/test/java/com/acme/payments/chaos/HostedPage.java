package com.acme.payments.chaos;

import java.util.List;
import java.util.Random;

/**
 * What a shopper does on the PSP's hosted page, by its effect on the order, so one {@link Workload} drives
 * either surface: the Gateway's buttons ({@code /hosted/<id>/<button>}) or Stripe's Checkout page
 * (the admin hooks that do what its buttons do).
 *
 * @param buttons presses a button on the page of a payment (the redirectUrl's last segment); its status
 * @param took the status of a press the PSP took
 * @param choices the buttons with the cumulative odds of each (a dice roll below {@code below}); above the
 *        last, the shopper leaves the page open
 */
record HostedPage(Buttons buttons, int took, List<Choice> choices) {

    /** What the shopper's press means for the rest of the visit. */
    enum Effect {
        /** money taken: refunds follow */
        PAY,
        /** money held: capture (then refunds) or void follow */
        AUTHORIZE,
        /** no money: the shopper may check out again */
        DECLINE
    }

    record Click(String button, Effect effect) {
    }

    record Choice(double below, Click click) {
    }

    interface Buttons {
        int press(String pageId, String button, Random random);
    }

    static Choice below(double odds, String button, Effect effect) {
        return new Choice(odds, new Click(button, effect));
    }

    /** The shopper's choice; null when they leave the page open. */
    Click choose(Random random) {
        double dice = random.nextDouble();
        return choices.stream().filter(c -> dice < c.below()).findFirst().map(Choice::click).orElse(null);
    }

    /** Presses it; the tally suffix: empty when the PSP took it, else {@code .refused-<status>}. */
    String press(String pageId, Click click, Random random) {
        int status = buttons.press(pageId, click.button(), random);
        return status == took ? "" : ".refused-" + status;
    }
}
